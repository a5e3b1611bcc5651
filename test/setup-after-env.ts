import { shutDownEngineServices } from './engine/engineServices';

// Every test file, whichever n8n-core contexts it made (engine runs, webhook or credential test
// contexts), leaves no n8n-core timer behind: jest exits on its own.
afterAll(shutDownEngineServices);
