// What the "Call Me" form says (spec 2, 5, 8, 9): loaded with the form (PhoneForm.tsx), so none of
// it weighs on the page's first load; the page's other sentences are in messages.ts.

/** The form's texts, quoted from the specification. */
export const formText = {
  callNow: 'Call Now',
  initiating: 'Initiating Call...',
  phoneLabel: 'Your phone number',
  emptyPhone: 'Please enter a valid phone number',
  callFailed: 'Failed to initiate call. Please try again.',
  callSuccess: "Great! You'll receive a call within the next 15 seconds.",
} as const;
