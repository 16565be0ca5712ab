import { createTheme } from '@mantine/core';

/** Colours with enough contrast for WCAG AA on white (axe-core checks every page). */
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: 8,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  defaultRadius: 'md',
});
