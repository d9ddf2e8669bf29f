// The words every run uses when it cannot run, so users see one explanation everywhere.

/** How to give `voice dev` (and `voice test`) a model, said when a run has none. */
export const NO_MODEL_REASON =
  'To run evals and simulations, give the local platform a model: `voice dev --llm http://127.0.0.1:11434/v1 --llm-model llama3.2` ' +
  '(any OpenAI-compatible server; VOICE_LLM_KEY for a hosted one), or replay a recorded cassette with `--llm-replay FILE`; ' +
  'the same options work with `voice test`. A custom-llm assistant needs its model.url.';
