/**
 * Who an operator action is audited as: the signed-in operator's id, or CLI_ACTOR for the
 * `topup` CLI (whoever can run it already holds the database and the master key).
 */
export type Actor = string;
export const CLI_ACTOR: Actor = 'cli';
