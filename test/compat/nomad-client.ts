/**
 * The nomad-client package, loaded as it is published. Its entry point is its TypeScript source (no
 * compiled JavaScript, no declarations), written for settings this project's compiler rejects, so the
 * compiler is kept from resolving it (a specifier held in a variable) and the calls the tests make are
 * typed here; vitest compiles the package's source when it loads it.
 */
/** Nomad's JSON as the library hands it back; the tests assert it field by field. */
export type Json = Record<string, any>;

export interface HttpResponse<T> {
  data: T;
  status: number;
  /** as node:http received them: lower-case names */
  headers: Record<string, string>;
}

export interface HttpClient {
  get<T = Json>(url: string, config?: { params?: Record<string, string | number> }): Promise<HttpResponse<T>>;
  post<T = Json>(url: string, data?: unknown): Promise<HttpResponse<T>>;
}

interface QueryOptions {
  index?: number;
  wait?: string;
}

export interface NomadClient {
  jobs: {
    list(): Promise<{ data: Json[] }>;
    get(id: string, options?: QueryOptions): Promise<Json>;
    create(job: Json): Promise<Json>;
    update(job: Json): Promise<Json>;
    versions(id: string): Promise<Json[]>;
    allocations(id: string): Promise<Json[]>;
    evaluations(id: string): Promise<Json[]>;
    deployments(id: string): Promise<Json[]>;
    summary(id: string): Promise<Json>;
    plan(job: Json): Promise<Json>;
    stop(id: string, purge?: boolean): Promise<Json>;
  };
  nodes: {
    list(): Promise<{ data: Json[] }>;
    get(id: string): Promise<Json>;
    allocations(id: string): Promise<Json[]>;
  };
  allocations: {
    list(): Promise<{ data: Json[] }>;
    get(id: string): Promise<Json>;
  };
  namespaces: {
    list(): Promise<{ data: Json[] }>;
    get(name: string): Promise<Json>;
    update(ns: { Name: string; Description?: string }): Promise<unknown>;
    delete(name: string): Promise<unknown>;
  };
  ping(): Promise<boolean>;
  healthCheck(): Promise<Json>;
}

interface NomadClientModule {
  NomadClient: new (config: { baseUrl: string; token?: string }) => NomadClient;
  NomadHttpClientFactory: { createBasic(baseURL: string, token?: string): HttpClient };
}

const specifier = 'nomad-client';
const lib = (await import(specifier)) as NomadClientModule;

/** A client as the library's README makes one: address and token, X-Nomad-Token on every request. */
export const nomadClient = (baseUrl: string, token?: string): NomadClient => new lib.NomadClient({ baseUrl, token });

/** The library's own HTTP client, for the endpoints its modules have no method for. */
export const nomadHttp = (baseUrl: string, token?: string): HttpClient => lib.NomadHttpClientFactory.createBasic(baseUrl, token);
