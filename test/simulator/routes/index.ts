import type { Route } from '../router';
import type { SimState } from '../state';
import { assetReviewRoutes } from './assetReview';
import { chatRoutes } from './chat';
import { fileRoutes } from './files';
import { imageRoutes } from './images';
import { responsesRoutes } from './responses';
import { familyARoutes } from './video/familyA';
import { familyBRoutes } from './video/familyB';
import { familyCRoutes } from './video/familyC';
import { genericVideoRoutes } from './video/generic';
import { longRunningRoutes } from './video/longRunning';
import { taskSRoutes } from './video/taskS';

/** Every gateway route of both hosts. */
export function gatewayRoutes(state: SimState): Route[] {
	return [
		...chatRoutes(),
		...responsesRoutes(state),
		...imageRoutes(state),
		...taskSRoutes(state),
		...familyARoutes(state),
		...genericVideoRoutes(state),
		...familyBRoutes(state),
		...familyCRoutes(state),
		...longRunningRoutes(state),
		...assetReviewRoutes(state),
		...fileRoutes(state),
	];
}
