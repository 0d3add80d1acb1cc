import { createTheme, type CSSVariablesResolver, Drawer, Modal, Notification } from '@mantine/core';

/**
 * One theme for both color schemes, with colors that pass WCAG AA contrast (4.5:1 for text):
 * the primary shade one step darker than Mantine's default in light (indigo.7 on white, white on
 * indigo.7), and dimmed text darker in light, lighter in dark, than Mantine's.
 */
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  fontFamily:
    'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  headings: { fontWeight: '650' },
  // black or white text on filled colors, whichever contrasts
  autoContrast: true,
  components: {
    // Mantine's close button (an ×) has no accessible name of its own
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    // the notifications a save shows, e.g. "Your values of api are saved."
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss' } },
    }),
  },
});

/** The colors the console uses for badges, alerts and buttons. */
const COLORS = ['indigo', 'blue', 'green', 'teal', 'orange', 'yellow', 'red', 'gray', 'grape'];

/**
 * Mantine's light-scheme text on tinted backgrounds (light and outline variants: badges, alerts)
 * is shade 6, under 4.5:1 for green, orange or yellow: a darkened shade 9 reads on any of them.
 */
const tintedText = Object.fromEntries(
  COLORS.flatMap((color) => {
    const dark = `color-mix(in srgb, var(--mantine-color-${color}-9) 70%, black)`;
    return [
      [`--mantine-color-${color}-light-color`, dark],
      [`--mantine-color-${color}-outline`, dark],
    ];
  }),
);

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // pickers draw their placeholder as text, which must read like dimmed text
    '--mantine-color-placeholder': 'var(--mantine-color-dimmed)',
    // a field's error (its message, an invalid input's text): Mantine's red.6 is 3.3:1 on white
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    // white on a destructive button: red.7 (the light primary shade) is 3.8:1, red.9 5.5:1
    '--mantine-color-red-filled': 'var(--mantine-color-red-9)',
    '--mantine-color-red-filled-hover': 'color-mix(in srgb, var(--mantine-color-red-9) 85%, black)',
    ...tintedText,
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-placeholder': 'var(--mantine-color-dimmed)',
    '--mantine-color-anchor': 'var(--mantine-color-indigo-3)',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
  },
});
