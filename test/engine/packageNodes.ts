import type { INodeType } from 'n8n-workflow';

import { ModelGatewayAssetReview } from '../../nodes/ModelGatewayAssetReview/ModelGatewayAssetReview.node';
import { ModelGatewayChat } from '../../nodes/ModelGatewayChat/ModelGatewayChat.node';
import { ModelGatewayChatModel } from '../../nodes/ModelGatewayChatModel/ModelGatewayChatModel.node';
import { ModelGatewayImageEdit } from '../../nodes/ModelGatewayImageEdit/ModelGatewayImageEdit.node';
import { ModelGatewayResponses } from '../../nodes/ModelGatewayResponses/ModelGatewayResponses.node';
import { ModelGatewayVideo } from '../../nodes/ModelGatewayVideo/ModelGatewayVideo.node';
import { ModelGatewayTaskTrigger } from '../../nodes/ModelGatewayTaskTrigger/ModelGatewayTaskTrigger.node';
import { ModelGatewayWaitForTask } from '../../nodes/ModelGatewayWaitForTask/ModelGatewayWaitForTask.node';

/** Every node the package ships, as the engine tests load them. Add new nodes here. */
export const packageNodeTypes: Record<string, INodeType> = {
	modelGatewayChat: new ModelGatewayChat(),
	modelGatewayChatModel: new ModelGatewayChatModel(),
	modelGatewayAssetReview: new ModelGatewayAssetReview(),
	modelGatewayImageEdit: new ModelGatewayImageEdit(),
	modelGatewayResponses: new ModelGatewayResponses(),
	modelGatewayVideo: new ModelGatewayVideo(),
	modelGatewayWaitForTask: new ModelGatewayWaitForTask(),
	modelGatewayTaskTrigger: new ModelGatewayTaskTrigger(),
};
