import { createTheme, darken, defaultVariantColorsResolver, parseThemeColor, type CSSVariablesResolver, type VariantColorsResolver } from '@mantine/core';

/** Colours with enough contrast for WCAG AA on white (axe-core checks every page). */
/** Light variants (badges, light buttons) write in a darkened shade 9 of their colour: shade 6 on its tint is below 4.5:1. */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== 'light') return colors;
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor) return colors;
  const text = darken(input.theme.colors[parsed.color]![9], 0.3);
  return { ...colors, color: text, hoverColor: text };
};

export const theme = createTheme({
  variantColorResolver,
  primaryColor: 'indigo',
  primaryShade: 8,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  defaultRadius: 'md',
});

/** Mantine's dimmed and placeholder greys are below 4.5:1 on white; one shade darker is not. */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--mantine-color-dimmed': t.colors.gray[7]!, '--mantine-color-placeholder': t.colors.gray[7]! },
  dark: {},
});
