"""The score keeper's touch screen: a router with a tab bar (`screen`) and one module per view
(`views`)."""
