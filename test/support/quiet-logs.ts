import { quietLogs } from './logs';

// Installed for every test file by jest.config.js (setupFiles).
quietLogs();
