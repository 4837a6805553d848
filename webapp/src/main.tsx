import 'virtual:amplify-theme.css';
// A module of its own (not an @import of amplify-ui.css, which the build
// inlines unseen by plugins): vite.config.ts leaves out its default tokens.
import '@aws-amplify/ui-react/styles/base.css';
import './styles/amplify-ui.css';
import './index.css';
import { startApp } from './app/start';

startApp(document.getElementById('root')!);
