// axe-core on every page as a visitor, both themes (e2e/a11y.mjs).
import { sweep } from './a11y.mjs';

sweep('visitor');
