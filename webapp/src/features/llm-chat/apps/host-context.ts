// What a tool's view is told about the chat around it (the MCP Apps host
// context): the theme, inline display, the frame's height limit, and the
// product's colours and fonts under the CSS variable names the extension
// defines (McpUiStyleVariableKey), so a view can look like the chat. The
// values are read resolved from the page (a view cannot see our
// stylesheet), so they follow the light or dark theme.

import type { McpUiHostContext, McpUiStyles } from '@modelcontextprotocol/ext-apps/app-bridge';
import { systemTheme, type ThemeName } from '../../../lib/theme';
import { VIEW_MAX_HEIGHT } from './limits';

/** The extension's variable → the Amplify UI theme variable our own styles use for the same thing. */
export const STYLE_VARIABLES: Readonly<Record<string, string>> = {
  '--color-background-primary': '--amplify-colors-background-primary',
  '--color-background-secondary': '--amplify-colors-background-secondary',
  '--color-background-tertiary': '--amplify-colors-background-tertiary',
  '--color-background-inverse': '--amplify-colors-font-primary',
  '--color-background-info': '--amplify-colors-background-info',
  '--color-background-danger': '--amplify-colors-background-error',
  '--color-background-success': '--amplify-colors-background-success',
  '--color-background-warning': '--amplify-colors-background-warning',
  '--color-background-disabled': '--amplify-colors-background-disabled',
  '--color-text-primary': '--amplify-colors-font-primary',
  '--color-text-secondary': '--amplify-colors-font-secondary',
  '--color-text-tertiary': '--amplify-colors-font-tertiary',
  '--color-text-inverse': '--amplify-colors-font-inverse',
  '--color-text-info': '--amplify-colors-font-info',
  '--color-text-danger': '--amplify-colors-font-error',
  '--color-text-success': '--amplify-colors-font-success',
  '--color-text-warning': '--amplify-colors-font-warning',
  '--color-text-disabled': '--amplify-colors-font-disabled',
  '--color-border-primary': '--amplify-colors-border-primary',
  '--color-border-secondary': '--amplify-colors-border-secondary',
  '--color-border-tertiary': '--amplify-colors-border-tertiary',
  '--color-border-info': '--amplify-colors-border-info',
  '--color-border-danger': '--amplify-colors-border-error',
  '--color-border-success': '--amplify-colors-border-success',
  '--color-border-warning': '--amplify-colors-border-warning',
  '--color-border-disabled': '--amplify-colors-border-disabled',
  '--color-ring-primary': '--amplify-colors-border-focus',
  '--font-sans': '--amplify-fonts-default-variable',
  '--font-weight-normal': '--amplify-font-weights-normal',
  '--font-weight-medium': '--amplify-font-weights-medium',
  '--font-weight-semibold': '--amplify-font-weights-semibold',
  '--font-weight-bold': '--amplify-font-weights-bold',
  '--font-text-xs-size': '--amplify-font-sizes-xs',
  '--font-text-sm-size': '--amplify-font-sizes-small',
  '--font-text-md-size': '--amplify-font-sizes-medium',
  '--font-text-lg-size': '--amplify-font-sizes-large',
  '--font-heading-sm-size': '--amplify-font-sizes-large',
  '--font-heading-md-size': '--amplify-font-sizes-xl',
  '--font-heading-lg-size': '--amplify-font-sizes-xxl',
  '--font-heading-xl-size': '--amplify-font-sizes-xxxl',
  '--border-radius-xs': '--amplify-radii-xs',
  '--border-radius-sm': '--amplify-radii-small',
  '--border-radius-md': '--amplify-radii-medium',
  '--border-radius-lg': '--amplify-radii-large',
  '--border-radius-xl': '--amplify-radii-xl',
  '--border-width-regular': '--amplify-border-widths-small',
  '--shadow-sm': '--amplify-shadows-small',
  '--shadow-md': '--amplify-shadows-medium',
  '--shadow-lg': '--amplify-shadows-large',
};

/** The chat's theme: the one set on <html> (the theme toggle), else the system's. */
export function pageTheme(doc: Document = document): ThemeName {
  const set = doc.documentElement.dataset.theme;
  return set === 'dark' || set === 'light' ? set : systemTheme();
}

/** The extension's variables with the page's resolved values (those the page does not define are left out). */
export function styleVariables(el: Element = document.documentElement): McpUiStyles {
  const style = getComputedStyle(el);
  const out: Record<string, string> = {};
  for (const [name, ours] of Object.entries(STYLE_VARIABLES)) {
    const value = style.getPropertyValue(ours).trim();
    if (value && !value.includes('var(')) out[name] = value;
  }
  return out as McpUiStyles;
}

/** The host context a view starts with (and is sent again when the theme changes). */
export function hostContext(el?: Element): McpUiHostContext {
  return {
    theme: pageTheme(),
    styles: { variables: styleVariables(el) },
    displayMode: 'inline',
    availableDisplayModes: ['inline'],
    containerDimensions: { maxHeight: VIEW_MAX_HEIGHT },
    locale: navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    platform: 'web',
  };
}
