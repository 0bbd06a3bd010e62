#include "multi_gpu_devices.hpp"

#include <stdexcept>

#include "families.hpp"
#include "unsupported.hpp"

namespace sync_bench {

std::string list_of(const std::vector<int>& devices) {
  std::string text;
  for (int d : devices) text += (text.empty() ? "" : ",") + std::to_string(d);
  return text;
}

Devices chosen_devices() {
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  if (count < 2)
    throw Unsupported("MultiGpu needs two CUDA devices; this machine has " + std::to_string(count));
  const MultiGpuSelection& selection = multi_gpu_selection();
  Devices d;
  if (selection.all) {
    d.pair = {0, 1};
    for (int i = 0; i < count; ++i) d.each.push_back(i);
    return d;
  }
  if (!selection.devices.empty()) {
    if (selection.devices.size() < 2)
      throw std::logic_error("--devices lists fewer than two devices (the parser lets none by)");
    for (int i : selection.devices)
      if (i >= count)
        throw Unsupported("--devices=" + list_of(selection.devices) + " names device " +
                          std::to_string(i) + ", but only " + std::to_string(count) +
                          " CUDA devices are visible");
    d.pair = {selection.devices[0], selection.devices[1]};
    d.each = selection.devices;
    return d;
  }
  if (selection.device + 1 >= count)
    throw Unsupported("MultiGpu uses --device=" + std::to_string(selection.device) +
                      " and the next device, but only " + std::to_string(count) +
                      " CUDA devices are visible (choose two with --devices=i,j)");
  d.pair = {selection.device, selection.device + 1};
  d.each = d.pair;
  return d;
}

void report_devices(benchmark::State& state, const std::vector<int>& devices) {
  state.counters["devices"] = static_cast<double>(devices.size());
  state.counters["device_a"] = devices.at(0);
  state.counters["device_b"] = devices.at(1);
}

}  // namespace sync_bench
