// n8n loads nodes and credentials from the paths listed in package.json's "n8n" section;
// this entry point exists only so that `require('n8n-nodes-model-gateway')` resolves.
module.exports = {};
