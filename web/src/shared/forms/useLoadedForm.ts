import { useState } from 'react';

/**
 * A form whose fields start from values the API returns (shared by every such form of both
 * apps). Until they arrive the fields are disabled, so nobody types into a field that is
 * about to change; after that, what the person typed wins over every later load or
 * refetch, so Save sends what is on the screen.
 *
 * `loaded` is undefined while loading; the form's starting values once loaded.
 */
export function useLoadedForm<V extends Record<string, unknown>>(loaded: V | undefined) {
  const [edits, setEdits] = useState<Partial<V>>({});
  const ready = loaded !== undefined;
  const value = <K extends keyof V>(name: K): V[K] | undefined => (name in edits ? (edits[name] as V[K]) : loaded?.[name]);
  const set = <K extends keyof V>(name: K, v: V[K]) => {
    if (ready) setEdits((e) => ({ ...e, [name]: v }));
  };
  return {
    ready,
    value,
    set,
    /** The fields the person changed, with what they typed. */
    edits,
    /** Drops the changes (after a save whose result is the new loaded value). */
    forget: () => setEdits({}),
    /** A text input's props: its value, disabled and busy until loaded. */
    text: (name: keyof V & string) => ({
      name,
      value: ready ? String(value(name) ?? '') : '',
      disabled: !ready,
      'aria-busy': !ready,
      onChange: (e: React.ChangeEvent<HTMLInputElement>) => set(name, e.currentTarget.value as V[typeof name]),
    }),
  };
}
