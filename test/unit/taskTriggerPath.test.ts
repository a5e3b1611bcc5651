import { ModelGatewayTaskTrigger } from '../../nodes/ModelGatewayTaskTrigger/ModelGatewayTaskTrigger.node';
import {
	QUERY_MODE_PATH,
	WEBHOOK_PATH,
	WEBHOOK_RESOLVERS,
	webhookPath,
} from '../../nodes/ModelGatewayTaskTrigger/secret';

describe("the webhook path's resolver for n8n 2.x", () => {
	const [webhook] = new ModelGatewayTaskTrigger().description.webhooks ?? [];

	test('is declared next to the template it stands for, as n8n requires', () => {
		const resolvers = (webhook as unknown as Record<symbol, unknown>)[WEBHOOK_RESOLVERS] as {
			path: { template: string; resolve: unknown };
		};
		expect(WEBHOOK_RESOLVERS).toBe(Symbol.for('n8n.webhookDescriptionResolvers'));
		expect(webhook.path).toBe(WEBHOOK_PATH);
		expect(resolvers.path.template).toBe(webhook.path);
		expect(resolvers.path.resolve).toBe(webhookPath);
	});

	test('gives what the template gives: the typed secret in path mode, else the fixed segment', () => {
		expect(webhookPath({ secretLocation: 'path', secret: 'abc_123' })).toBe('abc_123');
		expect(webhookPath({ secretLocation: 'query', secret: 'abc_123' })).toBe(QUERY_MODE_PATH);
		expect(webhookPath({ secretLocation: 'credential' })).toBe(QUERY_MODE_PATH);
		expect(WEBHOOK_PATH).toBe(
			'={{ $parameter["secretLocation"] === "path" ? $parameter["secret"] : "callback" }}',
		);
	});
});
