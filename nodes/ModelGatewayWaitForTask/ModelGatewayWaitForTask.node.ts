import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { credentialTest } from '../shared/gateway/credentialTests';
import * as waitForTasks from './actions/waitForTasks.operation';
import { BATCH_REPORT_OPTION, CHECK_ONCE, OUTPUT_NAMES, REPORT_OUTPUT_NAME } from './description';

const outputsOf = (names: string[]) =>
	JSON.stringify(names.map((displayName) => ({ type: NodeConnectionTypes.Main, displayName })));

export class ModelGatewayWaitForTask implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Model Gateway Wait for Task',
		name: 'modelGatewayWaitForTask',
		icon: {
			light: 'file:modelGatewayWaitForTask.svg',
			dark: 'file:modelGatewayWaitForTask.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: `={{$parameter["mode"] === "${CHECK_ONCE}" ? "Check Once and Route" : "Wait in This Execution"}}`,
		description:
			'Wait until Model Gateway tasks (such as videos) are done, and route them to Succeeded, Failed or Timed Out. Connect it after Model Gateway Video (Create).',
		defaults: { name: 'Model Gateway Wait for Task' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		// Still Running exists only when checking once, Batch Report only with its option: the
		// expression keeps the node's outputs honest.
		outputs: `={{ ($parameter["mode"] === "${CHECK_ONCE}" ? ${outputsOf(OUTPUT_NAMES)} : ${outputsOf(OUTPUT_NAMES.slice(0, 3))}).concat(($parameter["options"] || {})["${BATCH_REPORT_OPTION}"] === true ? ${outputsOf([REPORT_OUTPUT_NAME])} : []) }}`,
		// Literal names: n8n's linter reads them to see that every credential is tested.
		credentials: [{ name: 'modelGatewayApi', required: true, testedBy: 'modelGatewayApiTest' }],
		properties: waitForTasks.description,
	};

	methods = { credentialTest };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await waitForTasks.execute.call(this);
	}
}
