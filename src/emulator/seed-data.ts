// The emulator's seed data: a small customer tree, services with rate limits, and the demo key.
// Fields follow the gateway's Customer and Rate limit records.

export interface Customer {
  id: number;
  name: string;
  parentId: number;
  partnership: number;
  type: number;
  onboardingType: number;
  region: string;
  industry: string;
  ingestDomain: string | null;
}

export interface RateLimit {
  timeWindow: number;
  requestLimit: number;
  ignoreUrlPath: boolean;
  ignoreQueryString: boolean;
}

export interface Service {
  id: number;
  customerId: number;
  rateLimit: RateLimit | null;
}

/** The demo key: published on purpose, accepted only by the emulator. */
export const DEMO_ACCESS_KEY_ID = 'AKDEMO0000000001';
export const DEMO_ACCESS_KEY_SECRET = 'demo-secret-for-the-local-emulator-only';
export const DEMO_CUSTOMER_ID = 12345;

export function seedCustomers(): Customer[] {
  // Field order as in the gateway's Customer record.
  const customer = (
    id: number,
    name: string,
    parentId: number,
    type: number,
    region: string,
    industry: string,
    ingestDomain: string | null,
  ): Customer => ({
    id,
    name,
    parentId,
    partnership: 1,
    type,
    onboardingType: 1,
    region,
    industry,
    ingestDomain,
  });
  return [
    customer(10000, 'Demo Reseller', 0, 1, 'SG', 'Hosting', null),
    customer(12345, 'Demo Customer', 10000, 2, 'SG', '', null),
    customer(12346, 'Demo Child A', 12345, 2, 'SG', 'Media', 'ingest-a.example.net'),
    customer(12347, 'Demo Child B', 12345, 2, 'HK', 'Gaming', null),
    customer(99999, 'Another Account', 0, 2, 'SG', 'Retail', null),
  ];
}

export function seedServices(): Service[] {
  return [
    {
      id: 1001,
      customerId: 12345,
      rateLimit: { timeWindow: 30, requestLimit: 50, ignoreUrlPath: true, ignoreQueryString: true },
    },
    { id: 1002, customerId: 12346, rateLimit: null },
    {
      id: 2001,
      customerId: 99999,
      rateLimit: { timeWindow: 60, requestLimit: 100, ignoreUrlPath: false, ignoreQueryString: false },
    },
  ];
}
