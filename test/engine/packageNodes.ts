import type { INodeType } from 'n8n-workflow';

import { ModelGatewayChat } from '../../nodes/ModelGatewayChat/ModelGatewayChat.node';
import { ModelGatewayVideo } from '../../nodes/ModelGatewayVideo/ModelGatewayVideo.node';

/** Every node the package ships, as the engine tests load them. Add new nodes here. */
export const packageNodeTypes: Record<string, INodeType> = {
	modelGatewayChat: new ModelGatewayChat(),
	modelGatewayVideo: new ModelGatewayVideo(),
};
