import type { INodeProperties } from 'n8n-workflow';

import { FAMILY_IDS, TASK_FAMILIES } from '../shared/tasks';
import {
	itemsInFlightOption,
	optionsCollection,
	outputBinaryFieldProperty,
	traceIdOption,
} from '../shared/items/properties';
import { DEFAULT_INTERVAL_SECONDS, MIN_INTERVAL_SECONDS } from '../shared/polling/timing';

export const WAIT_HERE = 'waitHere';
export const CHECK_ONCE = 'checkOnce';

export const OUTPUT_NAMES = ['Succeeded', 'Failed', 'Timed Out', 'Still Running'];
/** The last output, present with the Batch Report option. */
export const REPORT_OUTPUT_NAME = 'Batch Report';
export const BATCH_REPORT_OPTION = 'batchReport';

const familyList = FAMILY_IDS.map((id) => `${id} (${TASK_FAMILIES[id].displayName})`).join(', ');

const showFor = (mode: string) => ({ show: { mode: [mode] } });

export const waitForTaskProperties: INodeProperties[] = [
	{
		displayName: 'Mode',
		name: 'mode',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Wait in This Execution',
				value: WAIT_HERE,
				description:
					'Keep checking until every task is done or timed out, then continue. Simple for a few tasks; does not survive an n8n restart.',
			},
			{
				name: 'Check Once and Route',
				value: CHECK_ONCE,
				description:
					'Check the tasks that are due now and route them; unfinished ones leave through Still Running. For batches: loop Still Running through a Wait node.',
			},
		],
		default: WAIT_HERE,
	},
	{
		displayName:
			'Holds this execution (and, in queue mode, a worker slot) until every task is done. An n8n restart ends the wait; for long batches use "Check Once and Route" in a loop, or the Model Gateway Task Callback Trigger.',
		name: 'waitHereNotice',
		type: 'notice',
		default: '',
		displayOptions: showFor(WAIT_HERE),
	},
	{
		displayName:
			'Connect Still Running to a Wait node (Resume: After Time Interval, Wait Amount {{ $json.nextCheckInSeconds }} seconds) and the Wait node back to this node. Waits of 65 seconds or more are stored by n8n, so the loop survives restarts.',
		name: 'checkOnceNotice',
		type: 'notice',
		default: '',
		displayOptions: showFor(CHECK_ONCE),
	},
	{
		displayName: 'Family',
		name: 'family',
		type: 'string',
		default: '={{ $json.family }}',
		required: true,
		description: `The provider family of the task: ${familyList}. By default taken from the incoming item, as Model Gateway Video outputs it.`,
	},
	{
		displayName: 'Task ID',
		name: 'taskId',
		type: 'string',
		default: '={{ $json.taskId }}',
		required: true,
		description: 'The ID of the task to wait for. By default taken from the incoming item.',
	},
	{
		displayName: 'Model',
		name: 'model',
		type: 'string',
		default: '={{ $json.model }}',
		description:
			'The model the task was created with, for families whose query needs it (long-running operations). By default taken from the incoming item.',
	},
	{
		displayName: 'Endpoint',
		name: 'endpoint',
		type: 'string',
		default: '={{ $json.endpoint }}',
		description:
			'The endpoint kind the task was created under, for families whose query needs it. By default taken from the incoming item.',
	},
	{
		displayName: 'Created At',
		name: 'createdAt',
		type: 'string',
		default: '={{ $json.createdAt }}',
		description:
			'When the task was created (ISO time). Some families may only be queried some time after creation; when unknown, the task counts as created now.',
	},
	{
		displayName: 'Check Interval (Seconds)',
		name: 'intervalSeconds',
		type: 'number',
		typeOptions: { minValue: MIN_INTERVAL_SECONDS, numberPrecision: 0 },
		default: DEFAULT_INTERVAL_SECONDS,
		hint: `At least ${MIN_INTERVAL_SECONDS} seconds. Grows gently for long tasks (twice as long after 10 minutes, at most 60 s). Task Family S tasks are checked at most once a minute, whatever this says.`,
		description: `How often a running task is checked, at least ${MIN_INTERVAL_SECONDS} seconds (the gateway's shortest gap between two checks of one task)`,
	},
	{
		displayName: 'Max Wait per Task (Minutes)',
		name: 'maxWaitMinutes',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 60,
		// As entries.ts counts it (deadlineAt), not from Created At: a task may not be checked at once.
		description: `After this long since waiting for the task began (this node, or the first pass of its loop), or since its first allowed check when that is later (${TASK_FAMILIES.taskS.displayName}: ${TASK_FAMILIES.taskS.pollPolicy.firstPollAfterMs / 60_000} minutes after creation), the task goes to Timed Out with its last known status`,
	},
	optionsCollection([
		{
			displayName: 'Batch Report',
			name: BATCH_REPORT_OPTION,
			type: 'boolean',
			default: false,
			description:
				'Whether to add an output with one report when the batch is over: counts by status and by family, the failures with their reasons, cost per currency, durations (median, 95th percentile, longest) and queries. In Check Once and Route the totals travel in the Still Running item, so the report covers every pass of the loop.',
		},
		{
			displayName: 'Download Result',
			name: 'downloadResult',
			type: 'boolean',
			default: false,
			description:
				'Whether to download the finished video into binary data. Download links are public, so no credential is sent to them. A file host failing for a moment (5xx, timeout, dropped connection) is asked again, 3 attempts in all; a download that still fails keeps the task on Succeeded with downloadError and downloadRetryable (whether a later run may get it).',
		},
		{
			...itemsInFlightOption,
			displayName: 'Checks in Flight',
			default: 4,
			description: 'How many tasks are checked at the same time (1 to 32)',
		},
		outputBinaryFieldProperty(
			'Binary field for the finished video (downloaded, or returned as bytes by families that answer with the video itself); further videos go to data_1, data_2 and so on',
		),
		traceIdOption,
	]),
];
