import type { INodeType } from 'n8n-workflow';

import { ModelGatewayChat } from '../../nodes/ModelGatewayChat/ModelGatewayChat.node';
import { ModelGatewayResponses } from '../../nodes/ModelGatewayResponses/ModelGatewayResponses.node';

/** Every node the package ships, as the engine tests load them. Add new nodes here. */
export const packageNodeTypes: Record<string, INodeType> = {
	modelGatewayChat: new ModelGatewayChat(),
	modelGatewayResponses: new ModelGatewayResponses(),
};
