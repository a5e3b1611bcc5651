'use strict';

/**
 * Benchmark only (bench/items.bench.ts): the least a node can do to send one chat request per
 * item through n8n's own HTTP helper. Its parameters are read once, the item's question is taken
 * from the item, the answer's text is kept. What it costs per item beyond the gateway's latency
 * is n8n's floor for any node that calls an API per item; the Model Gateway nodes are measured
 * against it.
 */
class BenchBareChat {
	constructor() {
		this.description = {
			displayName: 'Bench Bare Chat',
			name: 'benchBareChat',
			group: ['transform'],
			version: 1,
			description: 'One chat request per item through n8n’s HTTP helper, nothing else',
			defaults: { name: 'Bench Bare Chat' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [
				{ displayName: 'URL', name: 'url', type: 'string', default: '' },
				{ displayName: 'API Key', name: 'apiKey', type: 'string', default: '' },
				{ displayName: 'Model', name: 'model', type: 'string', default: 'chat-model-1' },
				{ displayName: 'Items in Flight', name: 'concurrency', type: 'number', default: 1 },
			],
		};
	}

	async execute() {
		const items = this.getInputData();
		const url = this.getNodeParameter('url', 0);
		const headers = { Authorization: `Bearer ${this.getNodeParameter('apiKey', 0)}` };
		const model = this.getNodeParameter('model', 0);
		const concurrency = Math.max(1, Number(this.getNodeParameter('concurrency', 0)));
		const output = new Array(items.length);
		let next = 0;
		const worker = async () => {
			while (next < items.length) {
				const index = next++;
				const answer = await this.helpers.httpRequest({
					method: 'POST',
					url,
					headers,
					json: true,
					body: { model, messages: [{ role: 'user', content: items[index].json.question }] },
				});
				output[index] = {
					json: { content: answer.choices[0].message.content },
					pairedItem: { item: index },
				};
			}
		};
		await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
		return [output];
	}
}

module.exports = { BenchBareChat };
