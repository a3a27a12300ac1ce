// What a stored signing key's ciphertext is bound to: its merchant and public key, authenticated by
// AES-GCM without being stored in the ciphertext. A ciphertext copied onto another merchant's row
// (by someone with write access to the table) then fails to open instead of signing for it.
export const sealContext = (merchantId: string, publicKey: string) => `signing-key:${merchantId}:${publicKey}`;
