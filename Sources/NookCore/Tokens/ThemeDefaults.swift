/// The built-in theme: every token SPEC names, with its default, as a DTCG document.
///
/// Kept as JSON rather than Swift so the defaults read exactly like a user's `theme.json`
/// and go through the same parser and checks. Notes on the choices:
/// - `rules.animations.*` mirror SwiftUI's presets, which share a 0.5 s duration and differ in
///   bounce: smooth (no bounce, ζ = 1), snappy (ζ = 0.85), bouncy (ζ = 0.7); a spring's
///   response plays the part of SwiftUI's duration. `linear` is a 0.35 s straight-line transition.
/// - `rules.view.preset` is untyped on purpose: it may alias any curve-typed preset.
/// - `font.family` is fontconfig's `Sans` alias, the renderer's default family too: nookd
///   measures text in it and every plan names it, so the two never disagree.
/// - `rules.view.duration` times a preset whose token has no duration of its own (a bare
///   `cubicBezier`) when the class string gives no `duration-<ms>`.
enum ThemeDefaults {
    static let json = #"""
    {
      "geometry": {
        "$type": "dimension",
        "topInset": { "$value": "0px" },
        "pill": {
          "height": { "$value": "32px" },
          "cornerRadius": { "$value": "16px" },
          "slotPadding": { "$value": "10px" },
          "slotMaxWidth": { "$value": "120px" }
        },
        "capsule": {
          "size": { "$value": "32px" },
          "spacing": { "$value": "8px" }
        },
        "peek": {
          "width": { "$value": "360px" },
          "height": { "$value": "72px" },
          "cornerRadius": { "$value": "24px" }
        },
        "expanded": {
          "width": { "$value": "480px" },
          "maxHeight": { "$value": "240px" },
          "cornerRadius": { "$value": "32px" },
          "padding": { "$value": "16px" }
        },
        "board": {
          "columns": { "$type": "number", "$value": 2 },
          "spacing": { "$value": "12px" },
          "widgetHeight": { "$value": "96px" }
        },
        "companion": {
          "width": { "$value": "360px" },
          "height": { "$value": "420px" },
          "cornerRadius": { "$value": "16px" },
          "margin": { "$value": "24px" }
        }
      },
      "transition": {
        "convert": { "$type": "spring", "$value": { "response": 0.42, "dampingFraction": 0.82 } },
        "peek": { "$type": "spring", "$value": { "response": 0.34, "dampingFraction": 0.86 } },
        "fade": { "$type": "duration", "$value": "180ms" },
        "fadeCurve": { "$type": "cubicBezier", "$value": [0.25, 0.1, 0.25, 1] },
        "content": { "$type": "spring", "$value": { "response": 0.35, "dampingFraction": 0.85 } }
      },
      "motion": {
        "sharedElement": {
          "$type": "spring",
          "convert": { "$value": "{transition.convert}" },
          "peek": { "$value": "{transition.peek}" }
        },
        "stagger": { "$type": "duration", "$value": "30ms" },
        "header": { "delay": { "$type": "duration", "$value": "80ms" } },
        "hideDip": { "$type": "duration", "$value": "120ms" },
        "maxDuration": { "$type": "duration", "$value": "2s" }
      },
      "font": {
        "family": { "$type": "string", "$value": "Sans" }
      },
      "broker": {
        "moduleGrace": { "$type": "duration", "$value": "10s" }
      },
      "rules": {
        "view": {
          "preset": { "$value": "{rules.animations.smooth}" },
          "duration": { "$type": "duration", "$value": "300ms" },
          "withoutPreset": { "$type": "string", "$value": "caller" }
        },
        "animations": {
          "smooth": { "$type": "spring", "$value": { "response": 0.5, "dampingFraction": 1.0 } },
          "snappy": { "$type": "spring", "$value": { "response": 0.5, "dampingFraction": 0.85 } },
          "bouncy": { "$type": "spring", "$value": { "response": 0.5, "dampingFraction": 0.7 } },
          "linear": {
            "$type": "transition",
            "$value": { "duration": "350ms", "delay": "0ms", "timingFunction": [0, 0, 1, 1] }
          }
        },
        "named": { "$type": "string" }
      }
    }
    """#
}
