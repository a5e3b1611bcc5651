import type { AssetUrlField } from '../shared/schemas/assetReview';

/** Where the node reads asset URLs from (the "Asset URLs From" parameter). */
export type UrlSource = 'list' | 'expression' | 'aggregate';

/**
 * Turns what a URL parameter evaluated to into a list: an array is taken as it is, text is
 * split into URLs (a JSON array, or one URL per line / separated by commas or spaces).
 * Entries are not checked here: the schema does that and names the bad one.
 */
export function toUrlList(value: unknown): unknown[] {
	if (value === undefined || value === null) return [];
	if (Array.isArray(value)) return value.flat().filter((entry) => entry !== '' && entry !== null);
	if (typeof value !== 'string') return [value];
	const text = value.trim();
	if (text === '') return [];
	if (text.startsWith('[')) {
		try {
			const parsed: unknown = JSON.parse(text);
			if (Array.isArray(parsed)) return toUrlList(parsed);
		} catch {
			// Not JSON after all: read it as plain text below.
		}
	}
	// Commas only separate when another URL follows, so a comma inside a query survives.
	return text.split(/\s+|,\s*(?=[a-z][a-z0-9+.-]*:)/i).filter((entry) => entry !== '');
}

export interface UrlFieldChoice {
	field: AssetUrlField;
	urls: unknown[];
	/** Set when URLs were given for both fields and some were therefore not sent. */
	notice?: string;
}

/**
 * Picks the one field to send. As on the gateway, a non-empty legacy list wins over the
 * other URLs; unlike sending both, the user is told which URLs were left out.
 */
export function chooseUrlField(
	assetUrls: unknown[],
	legacyUrls: unknown[],
	sendAs: AssetUrlField,
): UrlFieldChoice {
	if (legacyUrls.length === 0) return { field: sendAs, urls: assetUrls };
	if (assetUrls.length === 0) return { field: 'asset_url_list', urls: legacyUrls };
	return {
		field: 'asset_url_list',
		urls: legacyUrls,
		notice: `Both asset URLs (${assetUrls.length}) and a Legacy Asset URL List (${legacyUrls.length}) were given. As on the gateway, the legacy list wins: only asset_url_list was sent, and the ${assetUrls.length} other URL(s) were not reviewed.`,
	};
}
