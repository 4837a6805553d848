import { useRef, useState, type ChangeEvent, type FocusEvent } from 'react';
import { BLUR_ERROR_DELAY_MS, hasErrors } from './validation';
import { useTimeouts } from '../../lib/use-timeouts';

type Errors<V> = Partial<Record<keyof V, string>>;

/**
 * Form state shared by the sign-in and register forms: values, SPEC §5
 * errors shown once a field was left or the form submitted, and a submit
 * gate that focuses the first invalid field.
 */
export function useValidatedForm<V extends { [K in keyof V]: string }>(initial: V, validate: (values: V) => Errors<V>) {
  const [values, setValues] = useState<V>(initial);
  const [touched, setTouched] = useState<Partial<Record<keyof V, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const timeouts = useTimeouts();
  const errors = validate(values);

  const shown = (field: keyof V) => (submitted || touched[field] ? errors[field] : undefined);
  const update = (field: keyof V) => (e: ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [field]: e.target.value }));
  // Shown a moment after blur: an error appearing at once would push the
  // submit button away between mouse-down and mouse-up and swallow the click.
  // Not at all when focus went to the form's submit button: on a slow device
  // the moment can pass before the mouse comes up, and the submit shows
  // every error anyway. The timer dies with the form: it must not fire into
  // an unmounted page.
  const blur = (field: keyof V) => (e: FocusEvent<HTMLInputElement>) => {
    const to = e.relatedTarget;
    if (to instanceof HTMLButtonElement && to.type === 'submit' && to.form === formRef.current) return;
    timeouts.set(() => setTouched((t) => ({ ...t, [field]: true })), BLUR_ERROR_DELAY_MS);
  };

  /** Marks the form submitted; false (and the first invalid field focused) when it has errors. */
  const checkOnSubmit = (): boolean => {
    setSubmitted(true);
    if (!hasErrors(errors as Record<string, string | undefined>)) return true;
    formRef.current?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
    return false;
  };

  /** Props for an Amplify field bound to `field`. */
  const field = (name: keyof V) => ({
    value: values[name],
    onChange: update(name),
    onBlur: blur(name),
    hasError: Boolean(shown(name)),
    errorMessage: shown(name),
  });

  return { values, errors, formRef, field, checkOnSubmit };
}
