import { contractDrift, generateApiContract } from './contract';

describe('API contract (apps/api/schema.graphql, apps/api/openapi.json)', () => {
  it('the committed SDL and OpenAPI document are what the code generates (npm run api:contract)', async () => {
    const contract = await generateApiContract();
    expect(contract.schema).toContain('type Query');
    expect(JSON.parse(contract.openapi).paths['/v1/runs']).toBeDefined();
    expect(contractDrift(contract)).toEqual([]);
  });
});
