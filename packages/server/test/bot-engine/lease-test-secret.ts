/** The secret key both lease-test processes seal and open exchange keys with. */
export const LEASE_TEST_SECRET = 'lease-test-secret-key-0123456789-abcdefgh';
