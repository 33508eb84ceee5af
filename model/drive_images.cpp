#include "model/drive_images.h"

namespace ssdlab {

ImageInfo save_image(const std::string& path, const DriveConfig& config, const DeviceController& controller) {
  const PageStore* store = controller.page_store();
  if (!store) throw ImageError("image save: this drive does not carry data");
  return save_image(path, config, controller.ftl(), *store);
}

ImageInfo load_image(const std::string& path, const DriveConfig& config, DeviceController& controller,
                     const std::atomic<bool>* interrupted) {
  PageStore* store = controller.page_store();
  if (!store) throw ImageError("image load: this drive does not carry data");
  return load_image(path, config, controller.ftl(), *store, interrupted);
}

}  // namespace ssdlab
