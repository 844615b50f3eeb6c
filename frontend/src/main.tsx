import { startFirstScreen } from './firstScreen/earlyAnswers';
import './styles.css';

// For slow networks this entry is tiny, so home's first requests leave while the app (React, the router,
// home) is still on its way: index.html preloads it (vite.config.ts) and it starts when it is in.
startFirstScreen();
void import('./app/start');
