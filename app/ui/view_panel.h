#pragma once
// ImGui controls for ViewSettings, recording and export, as sections the
// side panel (app/ui/ui_panel.cpp) calls where it wants them. Each function edits
// the plain struct it is given and returns what the user asked for; none of
// them touches the app.
#include <string>

#include "app/output/recording.h"
#include "app/render/view_modes.h"

namespace tetlab {

// "View" section: mode radio buttons, field combo (with tooltips), range,
// cut plane (normal presets X/Y/Z + free normal, offset slider, shrink,
// surface toggle), wireframe opacities, overlay toggles. Keys 'V' / 'C'
// are the app's to bind (cycleViewMode / cycleColorField). Returns true when anything changed.
bool drawViewControls(ViewSettings& view);

// Next mode / field in order (wrapping), for keyboard shortcuts.
ViewMode cycleViewMode(ViewMode mode);
ColorField cycleColorField(ColorField field);

// What the "Record" section asks for this frame.
struct RecordUiActions {
  bool start = false;       // start recording with the edited options
  bool stop = false;        // stop the current recording
  bool screenshot = false;  // save a screenshot now
  bool exportStart = false; // start an OBJ sequence into exportDir
  bool exportStop = false;
};

// Persistent fields the "Record" section edits (kept by the app between frames).
struct RecordUiState {
  char output[512] = "tetlab.mp4";  // .mp4 -> video, otherwise a folder of PNGs
  int fps = 30;
  bool hideUi = false;
  char exportDir[512] = "obj_export";
};

// "Record" section: output path, fps, hide-UI toggle, Start/Stop, Screenshot (F12),
// OBJ sequence Start/Stop. recording/exporting say what is running now;
// ffmpegAvailable disables MP4 with kFfmpegMissingMessage as the tooltip.
RecordUiActions drawRecordControls(RecordUiState& state, bool recording, int recordedFrames, bool exporting,
                                   int exportedFrames, bool ffmpegAvailable);

// The options the state describes (format from the output's extension).
RecordingOptions recordingOptionsFrom(const RecordUiState& state);

}  // namespace tetlab
