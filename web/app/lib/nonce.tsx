/**
 * The CSP nonce of the page being rendered on the server (security-headers.server.ts), for the
 * inline scripts Remix writes (<Scripts>, <ScrollRestoration>). In the browser it is '' (browsers
 * hide nonces from the DOM, and the scripts are already running).
 */
import { createContext, useContext } from 'react';

const NonceContext = createContext('');
export const NonceProvider = NonceContext.Provider;
export const useNonce = (): string => useContext(NonceContext);
