// axe-core on every page as an admin, both themes (e2e/a11y.mjs).
import { sweep } from './a11y.mjs';

sweep('admin');
