// Leaving the app for another site (the payment provider's checkout). One
// object so tests can replace `assign` (jsdom's window.location cannot be stubbed).
export const browserLocation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
