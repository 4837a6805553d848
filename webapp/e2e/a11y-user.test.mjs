// axe-core on every page as a user, both themes (e2e/a11y.mjs).
import { sweep } from './a11y.mjs';

sweep('user');
