export { fakeUserManager } from '@portal/shared-auth/testing';
