import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

// n8n-core writes an instance key under N8N_USER_FOLDER; keep it out of the developer's home.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'mg-n8n-'));
process.env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS ??= 'false';
