// The app loads Amplify UI's per-component styles (amplify-ui.css), not its
// whole styles.css: every Amplify component the app imports must find its
// files there, in styles.css's own order (the cascade then matches it).

import { describe, expect, it } from 'vitest';
const amplifyUi = Object.values(import.meta.glob<string>('./amplify-ui.css', { query: '?raw', import: 'default', eager: true }))[0];
const allStyles = Object.values(import.meta.glob<string>('/node_modules/@aws-amplify/ui-react/dist/styles.css', { query: '?raw', import: 'default', eager: true }))[0];

const SOURCES = import.meta.glob<string>(['/src/**/*.tsx', '!/src/**/*.test.tsx'], { query: '?raw', import: 'default', eager: true });
const COMPONENT_FILES = import.meta.glob<string>('/node_modules/@aws-amplify/ui-react/dist/styles/*.css', {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** Each component's files, those of the components it is made of included. */
const FIELD = ['field', 'fieldMessages', 'fieldModifiers', 'flex'];
const STYLES_OF: Record<string, string[]> = {
  Accordion: ['accordion', 'icon'],
  Alert: ['alert', 'button', 'icon', 'flex', 'visuallyHidden'],
  Badge: ['badge'],
  Button: ['button', 'loader', 'flex'],
  Card: ['card'],
  CheckboxField: ['checkbox', 'checkboxField', 'icon', 'visuallyHidden', ...FIELD],
  Divider: ['divider'],
  Flex: ['flex'],
  Heading: ['heading'],
  Loader: ['loader'],
  Menu: ['menu', 'button', 'flex'],
  MenuButton: ['menu', 'button'],
  MenuItem: ['menu', 'button'],
  PasswordField: ['passwordField', 'fieldGroup', 'input', 'textField', 'button', 'icon', 'visuallyHidden', ...FIELD],
  Placeholder: ['placeholder'],
  Radio: ['radio', 'flex', 'text', 'visuallyHidden'],
  RadioGroupField: ['radioGroupField', 'radiogroup', 'fieldset', ...FIELD],
  SelectField: ['select', 'selectField', 'icon', ...FIELD],
  Table: ['table'],
  TableBody: ['table'],
  TableCell: ['table'],
  TableHead: ['table'],
  TableRow: ['table'],
  Text: ['text'],
  TextAreaField: ['textArea', 'textAreaField', ...FIELD],
  TextField: ['input', 'textField', ...FIELD],
  VisuallyHidden: ['visuallyHidden'],
};

const IMPORT = /import\s*\{([^}]*)\}\s*from\s*'@aws-amplify\/ui-react'/g;

function usedComponents(): Map<string, string> {
  const used = new Map<string, string>();
  for (const [file, text] of Object.entries(SOURCES)) {
    for (const m of text.matchAll(IMPORT)) {
      for (const name of m[1].split(',').map((s) => s.trim())) {
        if (name && !name.startsWith('type ')) used.set(name, file);
      }
    }
  }
  return used;
}

const imported = [...amplifyUi.matchAll(/@import '@aws-amplify\/ui-react\/styles\/([A-Za-z_]+)\.css';/g)].map((m) => m[1]);

describe('Amplify UI styles (amplify-ui.css)', () => {
  it('has the files of every Amplify component the app imports', () => {
    const missing: string[] = [];
    for (const [component, file] of usedComponents()) {
      const files = STYLES_OF[component];
      if (!files) {
        missing.push(`${component} (${file}): add it and its style files to STYLES_OF here and to amplify-ui.css`);
        continue;
      }
      for (const f of files) if (!imported.includes(f)) missing.push(`${f}.css for ${component} (${file})`);
    }
    expect(missing).toEqual([]);
  });

  it("imports them in styles.css's order", () => {
    const at = imported.map((f) => {
      const text = COMPONENT_FILES[`/node_modules/@aws-amplify/ui-react/dist/styles/${f}.css`];
      expect(text, `${f}.css`).toBeTruthy();
      return allStyles.indexOf(text.trim().slice(0, 300));
    });
    expect(at.every((i) => i >= 0)).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
  });
});
