/** This package's version (test/sdk/package.test.ts keeps it equal to package.json's). */
export const VERSION = '0.2.0';
