import type { FamilyId } from '../../shared/tasks';

/** What every operation gets for one item, read once by the router. */
export interface VideoItemSettings {
	/** The family selected in the node (Get Status prefers the one the input item names). */
	family: FamilyId;
	/** "From Each Item": the family (and the create fields) come from the item itself. */
	familyFromItem: boolean;
	traceId?: string;
	/** Add the credential's callback secret to the create's `callback_url` (if it has one). */
	addCallbackSecret: boolean;
	/** Where inline video bytes go: `data`, then `data_1`, `data_2`, ... */
	binaryPropertyName: string;
}
