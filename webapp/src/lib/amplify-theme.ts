// The Amplify UI theme's input: our brand colours and Amplify's dark mode.
// Its CSS is computed once at build time (vite.config.ts, the virtual module
// 'virtual:amplify-theme.css'), not by createTheme() in every visitor's
// browser before the first paint (about 30 ms of script each time; DESIGN
// §10 LCP). Plain data, importable from Node.

import { defaultDarkModeOverride, type Theme } from '@aws-amplify/ui';

export const AMPLIFY_THEME_NAME = 'aiwork';

export const AMPLIFY_THEME_INPUT: Theme = {
  name: AMPLIFY_THEME_NAME,
  tokens: {
    colors: {
      brand: {
        primary: {
          10: { value: '#eef2ff' },
          20: { value: '#e0e7ff' },
          40: { value: '#a5b4fc' },
          60: { value: '#6366f1' },
          80: { value: '#4f46e5' },
          90: { value: '#4338ca' },
          100: { value: '#3730a3' },
        },
      },
    },
  },
  overrides: [defaultDarkModeOverride],
};
