public enum NookTestSupportPlaceholder {}
