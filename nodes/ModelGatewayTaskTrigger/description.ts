import type { INodeProperties } from 'n8n-workflow';

import { TASK_FAMILIES } from '../shared/tasks';
import { DEFAULT_MAX_BODY_KB } from './body';
import { DEFAULT_MEMORY_CAPACITY, MAX_MEMORY_CAPACITY } from './eventMemory';
import { ASSET_REVIEW, AUTO_DETECT } from './recognize';
import { QUERY_MODE_PATH, SECRET_HEADER, SECRET_QUERY_PARAMETER } from './secret';

/** Parameter names: a public contract (saved workflows refer to them). */
export const PARAMETERS = {
	secret: 'secret',
	secretLocation: 'secretLocation',
	family: 'family',
	events: 'events',
	confirm: 'confirmWithGateway',
	familyAEndpoint: 'familyAEndpoint',
	options: 'options',
} as const;

export type EventsChoice = 'final' | 'all';

/** The secret's default: the node's own id (see the Secret parameter). */
export const DEFAULT_SECRET = '={{ $nodeId }}';

export const taskTriggerProperties: INodeProperties[] = [
	{
		displayName:
			'Put this node’s Production URL into the Callback URL of a Model Gateway Video (Task Family S, Family A) request, with its option Add Callback Secret on, or of an Asset Review request (with a typed secret), then activate (publish) this workflow. Each callback starts one execution; duplicates, stale and (by default) unfinished events are answered without starting one.',
		name: 'notice',
		type: 'notice',
		default: '',
	},
	...[
		// Version 3 makes the secret from the credential by default; 1 and 2 keep a typed one.
		{ versions: [1, 2], defaultLocation: 'path' },
		{ versions: [3], defaultLocation: 'credential' },
	].map(
		({ versions, defaultLocation }): INodeProperties => ({
			displayName: 'Secret',
			name: PARAMETERS.secretLocation,
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { '@version': versions } },
			options: [
				{
					name: 'Made From the Credential',
					value: 'credential',
					description: `Nothing to type: a secret made from the Model Gateway credential's API key (a keyed hash; the key stays in n8n). The URL ends in /${QUERY_MODE_PATH}; a Model Gateway Video node with the same credential and the option Add Callback Secret adds ?${SECRET_QUERY_PARAMETER}=… when it sends the request.`,
				},
				{
					name: 'Typed, as Query Parameter or Header',
					value: 'query',
					description: `The URL ends in /${QUERY_MODE_PATH}; add ?${SECRET_QUERY_PARAMETER}=YOUR_SECRET to it (or send the ${SECRET_HEADER} header). Missing: 401, wrong: 403.`,
				},
				{
					name: 'Typed, in the URL Path',
					value: 'path',
					description:
						'The typed secret is the last part of the Production URL, so copying the URL is all it takes. Requests with another path are answered 404 by n8n.',
				},
			],
			default: defaultLocation,
		}),
	),
	{
		// Versions 1 and 2 (and triggers imported before 0.6) keep a typed secret that n8n shows;
		// activation also warns about it in n8n's log (visibleSecret.ts).
		displayName:
			'Replace a typed secret that is this node’s ID (the default) or the workflow’s ID (as the examples before 0.6 set it): n8n shows both in the editor’s URL and in exported workflows, so anyone who saw either can start this workflow. Choose Made From the Credential, or type 24 or more random characters.',
		name: 'visibleSecretNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { [PARAMETERS.secretLocation]: ['path', 'query'] } },
	},
	{
		displayName: 'Typed Secret',
		name: PARAMETERS.secret,
		type: 'string',
		// The node's own id: a random UUID the editor gives every node, so each trigger gets its
		// own secret without any setup. Replace it with any value to rotate the secret.
		default: DEFAULT_SECRET,
		required: true,
		displayOptions: { show: { [PARAMETERS.secretLocation]: ['path', 'query'] } },
		description:
			'Shared secret a callback must present. The gateway signs nothing, so this is what keeps strangers from starting the workflow. Letters, digits, "-" and "_" only; use 24 random characters or more (the default, the node\'s ID, is shown in exported workflows and the editor\'s URL). After changing it, activate (publish) the workflow again and update the Callback URL.',
	},
	{
		displayName: 'Family',
		name: PARAMETERS.family,
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Detect From Payload',
				value: AUTO_DETECT,
				description:
					'Task Family S, Family A, Family C and asset review callbacks are recognized by their fields',
			},
			...Object.values(TASK_FAMILIES).map((family) => ({
				name: family.displayName,
				value: family.id,
				description: `Read every callback as a ${family.displayName} task record`,
			})),
			{
				name: 'Asset Review',
				value: ASSET_REVIEW,
				description: 'Read every callback as an asset review result',
			},
		],
		default: AUTO_DETECT,
		description: 'Which kind of callback this URL receives',
	},
	{
		displayName: 'Events',
		name: PARAMETERS.events,
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Final Events Only',
				value: 'final',
				description: 'Start the workflow when a task succeeded or failed',
			},
			{
				name: 'Every Status Change',
				value: 'all',
				description: 'Also start it for queued, running and unrecognized statuses',
			},
		],
		default: 'final',
	},
	{
		displayName: 'Confirm with the Gateway',
		name: PARAMETERS.confirm,
		type: 'boolean',
		default: false,
		description:
			'Whether to fetch the task record from the gateway (one query per callback, never a loop) and emit that instead of the callback body, so a forged "succeeded" cannot start the workflow. Task Family S tasks (the gateway allows no query once a callback has arrived) and asset review results are not queried: they are emitted as received, with confirmed false and the reason in unconfirmedReason. Protect those with the secret.',
	},
	{
		displayName: 'Family A Endpoint',
		name: PARAMETERS.familyAEndpoint,
		type: 'options',
		options: [
			{ name: 'Image to Video', value: 'image2video' },
			{ name: 'Omni Video', value: 'omni-video' },
			{ name: 'Text to Video', value: 'text2video' },
		],
		default: 'omni-video',
		displayOptions: { show: { [PARAMETERS.confirm]: [true] } },
		description:
			'Family A tasks are queried under the endpoint they were created with, which callbacks do not carry',
	},
	{
		displayName: 'Options',
		name: PARAMETERS.options,
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Max Body Size (KB)',
				name: 'maxBodyKb',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DEFAULT_MAX_BODY_KB,
				description: 'Larger callbacks are refused with 413 and start nothing',
			},
			{
				displayName: 'Remembered Tasks',
				name: 'memoryCapacity',
				type: 'number',
				typeOptions: { minValue: 10, maxValue: MAX_MEMORY_CAPACITY },
				default: DEFAULT_MEMORY_CAPACITY,
				description:
					'How many tasks the duplicate and out-of-order check remembers (the least recently heard-of are forgotten first). Each is saved with the workflow, about 60 bytes.',
			},
		],
	},
];
