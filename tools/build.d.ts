/** Types of tools/build.js (plain CommonJS: it runs before anything is compiled). */
export declare const STAMP: string;
export declare const INPUTS: readonly string[];
export declare function staleInput(root?: string): string | null;
