import '@aws-amplify/ui-react/styles.css';
import './index.css';
import { startApp } from './app/start';

startApp(document.getElementById('root')!);
