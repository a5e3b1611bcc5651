import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { itemParameter } from '../../nodes/shared/items/itemParameters';
import { packageNodeTypes } from './packageNodes';

/**
 * itemParameter fills in `{{ $json.field }}` expressions itself: through n8n's real
 * expression engine, it must give exactly what getNodeParameter gives, value and type.
 */

class ParameterProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Parameter Probe',
		name: 'parameterProbe',
		group: ['transform'],
		version: 1,
		description: 'Reads one parameter both ways',
		defaults: { name: 'Parameter Probe' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [
			{ displayName: 'Value', name: 'value', type: 'string', default: '' },
			{
				displayName: 'Entries',
				name: 'entries',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				options: [
					{
						displayName: 'Entry',
						name: 'values',
						values: [{ displayName: 'Text', name: 'text', type: 'string', default: '' }],
					},
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((_, itemIndex) => ({
				json: {
					n8nValue: this.getNodeParameter('value', itemIndex, ''),
					ownValue: itemParameter(this, 'value', itemIndex, ''),
					n8nEntries: this.getNodeParameter('entries.values', itemIndex, []) as never,
					ownEntries: itemParameter(this, 'entries.values', itemIndex, []) as never,
				},
			})),
		];
	}
}

// Before the harness is loaded: it builds its node table from packageNodeTypes.
packageNodeTypes.parameterProbe = new ParameterProbe();

describe('itemParameter through the real engine', () => {
	it('gives what getNodeParameter gives for item-field expressions, whatever the field holds', async () => {
		const { runNode } = await import('./harness');
		const fields = ['text', '', 42, 0, -1.5, true, false, null, { a: 1 }, ['x'], 'ünï 🌍'];
		const result = await runNode(
			{
				type: 'parameterProbe',
				parameters: {
					value: '={{ $json.field }}',
					entries: {
						values: [
							{ text: 'fixed' },
							{ text: '={{ $json.nested.field }}' },
							{ text: '={{$json.field}}' },
						],
					},
				},
			},
			{
				credentials: {},
				input: [
					...fields.map((field) => ({ json: { field, nested: { field } } })),
					{ json: { other: 1 } },
				],
			},
		);
		expect(result.error('Node Under Test')).toBeUndefined();
		expect(result.items).toHaveLength(fields.length + 1);
		for (const { json } of result.items) {
			expect(json.ownValue).toStrictEqual(json.n8nValue);
			expect(json.ownEntries).toStrictEqual(json.n8nEntries);
		}
		expect(result.items.slice(0, 3).map(({ json }) => json.ownValue)).toStrictEqual([
			'text',
			'',
			42,
		]);
	});
});
