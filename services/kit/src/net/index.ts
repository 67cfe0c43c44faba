export { addressKey } from './address-key';
