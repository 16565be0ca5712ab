// autocannon ships no types; the suite uses its programmatic API only.
declare module 'autocannon';
