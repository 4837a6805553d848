import '@aws-amplify/ui-react/styles.css';
import 'virtual:amplify-theme.css';
import './index.css';
import { startApp } from './app/start';

startApp(document.getElementById('root')!);
