/** Puts a textarea's cursor at the start of a line of its text (1-based), so the reader lands on an error there. */
export function caretToLine(area: HTMLTextAreaElement, text: string, line: number): void {
  const offset = text.split('\n').slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  area.focus();
  area.setSelectionRange(offset, offset);
}
