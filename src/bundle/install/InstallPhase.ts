/**
 * Told the name of each step of an install as it ends (`directory`, `links`, `precompress`, …),
 * so the deploy-phase bench (bench/deployPhases.ts) can time the real code step by step; a
 * deployment passes nothing.
 */
export type InstallPhase = (name: string) => void;
