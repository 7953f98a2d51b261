/** Keys of a job in the state tables: namespace and ID joined by NUL, so a prefix scan stays in one namespace. */
export const jobKey = (namespace: string, id: string) => `${namespace}\u0000${id}`;
