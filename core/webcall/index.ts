// Placeholder until the web-call client lands.
export {};
