/** A template that cannot be parsed or rendered, with where in the template: `name:line:col: message`. */
export class TemplateError extends Error {
  constructor(
    readonly templateName: string,
    readonly line: number,
    readonly col: number,
    readonly reason: string,
  ) {
    super(`${templateName}:${line}:${col}: ${reason}`);
    this.name = 'TemplateError';
  }
}
