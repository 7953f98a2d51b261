/** The product version, kept in step with package.json by a contract test. */
export const VERSION = '0.1.0';
