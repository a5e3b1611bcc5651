'use strict';

/**
 * Benchmark only (bench/items.bench.ts): the least a node can do to send one request per item
 * through n8n's own HTTP helper, to the route and with the body the Model Gateway node it stands
 * next to sends (chat completions, responses, a generic video create). Its parameters are read
 * once, the item's question is taken from the item, the answer's text or id is kept. What it
 * costs per item beyond the gateway's latency is n8n's floor for any node that calls an API per
 * item; the Model Gateway nodes are measured against it.
 */

/** Per route: the request body for one question, and what of the answer is kept. */
const ROUTES = {
	chat: {
		path: '/v1/chat/completions',
		body: (model, question) => ({ model, messages: [{ role: 'user', content: question }] }),
		output: (answer) => ({ content: answer.choices[0].message.content }),
	},
	responses: {
		path: '/v1/responses',
		body: (model, question) => ({ model, input: question }),
		output: (answer) => ({ outputText: answer.output[0].content[0].text }),
	},
	video: {
		path: '/v1/videos',
		body: (model, question) => ({ model, prompt: question }),
		output: (answer) => ({ taskId: answer.id }),
	},
};
class BenchBareRequest {
	constructor() {
		this.description = {
			displayName: 'Bench Bare Request',
			name: 'benchBareRequest',
			group: ['transform'],
			version: 1,
			description: 'One request per item through n8n’s HTTP helper, nothing else',
			defaults: { name: 'Bench Bare Request' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [
				{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: '' },
				{
					displayName: 'Route',
					name: 'route',
					type: 'options',
					options: [
						{ name: 'Chat Completions', value: 'chat' },
						{ name: 'Responses', value: 'responses' },
						{ name: 'Video (Generic)', value: 'video' },
					],
					default: 'chat',
				},
				{ displayName: 'API Key', name: 'apiKey', type: 'string', default: '' },
				{ displayName: 'Model', name: 'model', type: 'string', default: 'chat-model-1' },
				{ displayName: 'Items in Flight', name: 'concurrency', type: 'number', default: 1 },
			],
		};
	}

	async execute() {
		const items = this.getInputData();
		const route = ROUTES[this.getNodeParameter('route', 0)];
		const url = `${this.getNodeParameter('baseUrl', 0)}${route.path}`;
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
					body: route.body(model, items[index].json.question),
				});
				output[index] = { json: route.output(answer), pairedItem: { item: index } };
			}
		};
		await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
		return [output];
	}
}

module.exports = { BenchBareRequest };
